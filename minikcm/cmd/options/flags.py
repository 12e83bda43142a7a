"""No upstream twin: pflag's typed flag variables (`BoolVar`, `Int32Var`, ...) over argparse.

kube-controller-manager binds each flag to a field of its options with
github.com/spf13/pflag: parsing the flag writes the field. `FlagVar` does the
same for an argparse parser, and the helpers below add one flag of each type
with a help text that ends in the default, as pflag prints it. The parse
functions accept what Go's strconv and time.ParseDuration accept and fail
with their messages.

Start reading at: FlagVar, then bool_flag.

Differs from Go (pflag): a bool flag given without a value is true
(`--leader-elect`); `--leader-elect=false` and `--leader-elect false` both
turn it off (pflag would not take the separate word).
"""

from __future__ import annotations

import argparse
import csv
from typing import Any

from minikcm.cmd.options.duration import format_duration, parse_duration


class FlagVar(argparse.Action):
    """No upstream twin: pflag's XxxVar. Parsing the flag writes its value into `target.<attr>`."""

    def __init__(self, option_strings: list[str], dest: str, target: Any = None, attr: str = "",
                 **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.target = target
        self.attr = attr

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        setattr(self.target, self.attr, values)


class StringSliceVar(FlagVar):
    """No upstream twin: pflag's StringSliceVar: comma-separated values; the first use replaces
    the default, later uses append."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.changed = False  # Go: stringSliceValue.changed

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        text = str(values)
        items = next(csv.reader([text])) if text else []  # Go: readAsCSV
        if not self.changed:
            setattr(self.target, self.attr, items)
            self.changed = True
        else:
            setattr(self.target, self.attr, [*getattr(self.target, self.attr), *items])


def parse_bool(s: str) -> bool:
    """Port of strconv.ParseBool: 1 t T TRUE true True, 0 f F FALSE false False."""
    if s in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if s in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    raise argparse.ArgumentTypeError(f'invalid argument "{s}": strconv.ParseBool: parsing "{s}": invalid syntax')


def parse_int32(s: str) -> int:
    """Port of pflag's int32 parsing (strconv.ParseInt(s, 0, 32)): decimal, 0x.., 0o.., 0b.., 0.. (octal)."""
    body = s[1:] if s[:1] in ("+", "-") else s
    bases = {"0x": 16, "0X": 16, "0o": 8, "0O": 8, "0b": 2, "0B": 2}
    try:
        if "_" in body or not body.isascii():
            raise ValueError(s)  # Python's int() would take these; Go's ParseInt does not
        if body[:2] in bases:
            value = int(body[2:], bases[body[:2]])
        elif len(body) > 1 and body[0] == "0":
            value = int(body[1:], 8)
        else:
            value = int(body, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f'invalid argument "{s}": strconv.ParseInt: parsing "{s}": invalid syntax') from None
    value = -value if s.startswith("-") else value
    if not -(1 << 31) <= value < (1 << 31):
        raise argparse.ArgumentTypeError(
            f'invalid argument "{s}": strconv.ParseInt: parsing "{s}": value out of range')
    return value


def parse_duration_flag(s: str) -> float:
    """pflag's DurationVar: Go's time.ParseDuration, in float seconds."""
    try:
        return parse_duration(s)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f'invalid argument "{s}": {err}') from None


def bool_flag(group: Any, name: str, target: Any, attr: str, help_text: str) -> None:
    default = getattr(target, attr)
    suffix = " (default true)" if default else ""
    group.add_argument(name, action=FlagVar, target=target, attr=attr, nargs="?", const=True, type=parse_bool,
                       metavar="true|false", default=argparse.SUPPRESS, help=help_text + suffix)


def duration_flag(group: Any, name: str, target: Any, attr: str, help_text: str) -> None:
    default = format_duration(getattr(target, attr))
    group.add_argument(name, action=FlagVar, target=target, attr=attr, type=parse_duration_flag,
                       metavar="duration", default=argparse.SUPPRESS, help=f"{help_text} (default {default})")


def int32_flag(group: Any, name: str, target: Any, attr: str, help_text: str) -> None:
    default = getattr(target, attr)
    group.add_argument(name, action=FlagVar, target=target, attr=attr, type=parse_int32, metavar="int32",
                       default=argparse.SUPPRESS, help=f"{help_text} (default {default})")


def string_flag(group: Any, name: str, target: Any, attr: str, help_text: str) -> None:
    default = getattr(target, attr)
    suffix = f' (default "{default}")' if default else ""
    group.add_argument(name, action=FlagVar, target=target, attr=attr, metavar="string",
                       default=argparse.SUPPRESS, help=help_text + suffix)
