"""``python -m lasthop``: the same command line as ``lasthop``."""

from lasthop.cli import main

if __name__ == "__main__":
    main()
