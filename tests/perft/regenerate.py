"""Recount tests/perft/*.perft: keep each file's positions and depths, write new counts.

Run only after an intended change of what is legal, and say why in the commit.
"""

from __future__ import annotations

from pathlib import Path

from rootlaw.runtime.perft import parse_file, perft, position

HERE = Path(__file__).resolve().parent


def main() -> None:
    for path in sorted(HERE.glob("*.perft")):
        lines = path.read_text(encoding="utf-8").splitlines()
        setups = iter(parse_file("\n".join(lines)))
        out, game = [], None
        for raw in lines:
            word = raw.split("#", 1)[0].split()
            if word and word[0] == "setup":
                setup, _, _ = next(setups)
                game = position(setup["factions"].split(","), int(setup["seed"]),
                                int(setup.get("after", 0)))
                out.append(raw)
            elif word and word[0] == "perft" and game is not None:
                out.append(f"perft {word[1]} {perft(game, int(word[1]))}")
            else:
                out.append(raw)
        path.write_text("\n".join(out) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
