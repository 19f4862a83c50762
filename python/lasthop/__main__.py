"""``python -m lasthop``: the same command line as ``lasthop``."""

from lasthop._fast import main

if __name__ == "__main__":
    main()
