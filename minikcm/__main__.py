"""No upstream twin. `python -m minikcm` runs the same command line as `minikcm`."""

from minikcm.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
