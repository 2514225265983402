"""``python -m taku``: the ``taku`` command (:func:`taku.cli.main`)."""

from taku.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
