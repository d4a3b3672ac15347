"""Arena runs with different seeds, summed up as one run over all their deals.

    python benchmarks/pooled.py A_seed10.records.json A_seed11.records.json

Each file is what ``benchmarks/matchup.py --records FILE`` wrote for the same two players and
variant, each with its own ``--seed`` (so different deals).  A long measurement split into
seeds keeps what it has finished if the machine's time runs out; this prints the summary the
arena would have printed for one run over every deal (each deal's games averaged, then the mean
and its 95% interval over the deals), so 2 x 1,000 deals read as 2,000.

Giving the same file twice is refused: it would count each deal twice and narrow the interval.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dizhu.pooling import format_pooled, pooled_result, read_runs  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", help="records files of runs with different seeds")
    parser.add_argument("--a", default="A", help="player A's name, for the heading")
    parser.add_argument("--b", default="B", help="player B's name, for the heading")
    parser.add_argument("--variant", default="?", help="the variant, for the heading")
    parser.add_argument("--bidding", action="store_true", help="the runs were played with bidding")
    args = parser.parse_args()
    try:
        runs = read_runs(args.files)
    except ValueError as e:
        parser.error(str(e))
    result = pooled_result(runs, args.a, args.b, args.variant, args.bidding)
    print(format_pooled(result, [Path(f).name for f in args.files]))


if __name__ == "__main__":
    main()
