"""Port of ParseDuration and Duration.String from Go's standard library (src/time/format.go, src/time/time.go).

Every duration flag of kube-controller-manager (`--leader-elect-lease-duration=15s`,
`--min-resync-period=12h`) is read by pflag's DurationVar, which calls Go's
`time.ParseDuration`. We port that parser byte for byte so that minikcm accepts
exactly the strings kube-controller-manager accepts (`1m30s`, `1.5h`, `300ms`,
`-2m3.4s`, `12µs`) and refuses the others with Go's own messages
(`time: missing unit in duration "1"`). `format_duration` is Go's
`Duration.String`, used to print defaults in `--help` the way pflag does (`12h0m0s`).

Follows Go's src/time/format.go in its current form (uint64 accumulation,
the form pflag uses in the Go release that builds Kubernetes 1.36), checked
against Go's own test tables (tests/cmd/options/test_duration.py).

Start reading at: parse_duration_ns, then leading_int and leading_fraction.

Not ported: nothing of ParseDuration's behaviour.
Differs from Go:
- Go strings are bytes. A Python `str` is encoded as UTF-8 first (with
  `surrogateescape`, so bytes that are not UTF-8 survive); `bytes` are taken as
  they are. The unit table therefore matches `µs` and `μs` as UTF-8 bytes, as Go does.
- Go returns `(Duration, error)`; we return integer nanoseconds (or float
  seconds from `parse_duration`) and raise ValueError with Go's message.
- Go's uint64 arithmetic is written with explicit bound checks on Python ints,
  at the same places Go checks for overflow.
"""

from __future__ import annotations

NANOSECOND = 1
MICROSECOND = 1000 * NANOSECOND
MILLISECOND = 1000 * MICROSECOND
SECOND = 1000 * MILLISECOND
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE

_MAX_UINT63 = 1 << 63            # Go: 1<<63, the bound every overflow check uses
_MAX_INT64 = (1 << 63) - 1       # Go: 1<<63 - 1, the largest Duration

UNIT_MAP: dict[bytes, int] = {
    b"ns": NANOSECOND,
    b"us": MICROSECOND,
    "µs".encode(): MICROSECOND,  # U+00B5 micro sign
    "μs".encode(): MICROSECOND,  # U+03BC Greek small letter mu
    b"ms": MILLISECOND,
    b"s": SECOND,
    b"m": MINUTE,
    b"h": HOUR,
}
"""Port of unitMap: the unit suffixes Go understands, as UTF-8 bytes, in nanoseconds."""

_LOWERHEX = "0123456789abcdef"


def _to_bytes(s: str | bytes) -> bytes:
    return s if isinstance(s, bytes) else s.encode("utf-8", "surrogateescape")


def quote(s: str | bytes) -> str:
    """Port of quote (time/format.go): `s` in double quotes, as Go's time errors show it.

    Bytes below 0x20 and all non-ASCII bytes are written as `\\xNN` escapes
    (so `"µ"` shows as `"\\xc2\\xb5"`), and `"` and `\\` get a backslash.
    Go decodes runes and escapes each byte of a non-ASCII rune; escaping byte
    by byte gives the same text.
    """
    out = ['"']
    for byte in _to_bytes(s):
        if byte >= 0x80 or byte < 0x20:
            out.append("\\x" + _LOWERHEX[byte >> 4] + _LOWERHEX[byte & 0xF])
        else:
            ch = chr(byte)
            if ch in ('"', "\\"):
                out.append("\\")
            out.append(ch)
    out.append('"')
    return "".join(out)


class _Overflow(ValueError):
    """Port of errLeadingInt: leading_int ran past 1<<63."""


def leading_int(s: bytes) -> tuple[int, bytes]:
    """Port of leadingInt (time/format.go): the run of decimal digits at the start of `s`.

    Returns the value and the rest of `s`. Raises _Overflow once the value
    would pass 1<<63 (Go's uint64 bound for durations).
    """
    x = 0
    i = 0
    while i < len(s):
        c = s[i]
        if c < 0x30 or c > 0x39:  # not '0'..'9'
            break
        if x > _MAX_UINT63 // 10:
            raise _Overflow("time: bad [0-9]*")
        x = x * 10 + (c - 0x30)
        if x > _MAX_UINT63:
            raise _Overflow("time: bad [0-9]*")
        i += 1
    return x, s[i:]


def leading_fraction(s: bytes) -> tuple[int, float, bytes]:
    """Port of leadingFraction (time/format.go): the digits after a decimal point.

    Returns `(x, scale, rest)` where the fraction is x / scale. Digits that
    would overflow are skipped, not refused: they are too small to matter
    (`0.100000000000000000000h` is 6 minutes).
    """
    x = 0
    scale = 1.0
    overflow = False
    i = 0
    while i < len(s):
        c = s[i]
        if c < 0x30 or c > 0x39:
            break
        i += 1
        if overflow:
            continue
        if x > _MAX_INT64 // 10:
            overflow = True  # Go: it's possible for overflow to give a positive number, so take care
            continue
        y = x * 10 + (c - 0x30)
        if y > _MAX_UINT63:
            overflow = True
            continue
        x = y
        scale *= 10
    return x, scale, s[i:]


def parse_duration_ns(s: str | bytes) -> int:
    """Port of ParseDuration (time/format.go): a Go duration string as integer nanoseconds.

    A duration is an optional sign and then one or more `<number><unit>`
    pairs; numbers may have a fraction; units are ns, us (or µs, μs), ms, s,
    m, h. "0" alone needs no unit. Examples: `1m30s` is 90 s, `1.5h` is
    5400 s, `-2m3.4s` is -123.4 s, `.5s` is 0.5 s.

    Raises:
        ValueError: Go's messages: `time: invalid duration "x"`,
            `time: missing unit in duration "1"`,
            `time: unknown unit "d" in duration "1d"`.
    """
    orig = _to_bytes(s)
    rest = orig
    d = 0
    neg = False

    # Consume [-+]?
    if rest:
        c = rest[:1]
        if c in (b"-", b"+"):
            neg = c == b"-"
            rest = rest[1:]
    # Special case: if all that is left is "0", this is zero.
    if rest == b"0":
        return 0
    if not rest:
        raise ValueError("time: invalid duration " + quote(orig))
    while rest:
        # The next character must be [0-9.]
        if not (rest[0] == 0x2E or 0x30 <= rest[0] <= 0x39):
            raise ValueError("time: invalid duration " + quote(orig))
        # Consume [0-9]*
        pl = len(rest)
        try:
            v, rest = leading_int(rest)
        except _Overflow:
            raise ValueError("time: invalid duration " + quote(orig)) from None
        pre = pl != len(rest)  # whether we consumed anything before a period

        # Consume (\.[0-9]*)?
        post = False
        f, scale = 0, 1.0
        if rest and rest[0] == 0x2E:
            rest = rest[1:]
            pl = len(rest)
            f, scale, rest = leading_fraction(rest)
            post = pl != len(rest)
        if not pre and not post:
            # no digits (e.g. ".s" or "-.s")
            raise ValueError("time: invalid duration " + quote(orig))

        # Consume unit.
        i = 0
        while i < len(rest):
            c = rest[i]
            if c == 0x2E or 0x30 <= c <= 0x39:
                break
            i += 1
        if i == 0:
            raise ValueError("time: missing unit in duration " + quote(orig))
        u, rest = rest[:i], rest[i:]
        unit = UNIT_MAP.get(u)
        if unit is None:
            raise ValueError("time: unknown unit " + quote(u) + " in duration " + quote(orig))
        if v > _MAX_UINT63 // unit:
            raise ValueError("time: invalid duration " + quote(orig))  # overflow
        v *= unit
        if f > 0:
            # float64 is needed to be nanosecond accurate for fractions of hours.
            # v >= 0 && (f*unit/scale) <= 3.6e+12 (ns/h, h is the largest unit)
            v += int(float(f) * (float(unit) / scale))
            if v > _MAX_UINT63:
                raise ValueError("time: invalid duration " + quote(orig))  # overflow
        d += v
        if d > _MAX_UINT63:
            raise ValueError("time: invalid duration " + quote(orig))
    if neg:
        return -d
    if d > _MAX_INT64:
        raise ValueError("time: invalid duration " + quote(orig))
    return d


def parse_duration(s: str | bytes) -> float:
    """Port of ParseDuration, returning float seconds (PORTING §4: durations are float seconds).

    Raises: ValueError with Go's message (see parse_duration_ns).
    """
    return parse_duration_ns(s) / SECOND


def _fmt_frac(v: int, prec: int) -> tuple[str, int]:
    """Port of fmtFrac (time/time.go): the fraction v/10**prec without trailing zeros, and v/10**prec."""
    digits: list[str] = []
    printing = False
    for _ in range(prec):
        digit = v % 10
        printing = printing or digit != 0
        if printing:
            digits.append(chr(0x30 + digit))
        v //= 10
    if printing:
        digits.append(".")
    return "".join(reversed(digits)), v


def format_duration_ns(d: int) -> str:
    """Port of Duration.String (time/time.go): `72h3m0.5s`, `1.2ms`, `0s`.

    Below one second the largest fitting small unit is used (ns, µs, ms);
    from one second up the form is hours, minutes and seconds, leaving out
    leading zero units (`1m30s`, `12h0m0s`).
    """
    neg = d < 0
    u = -d if neg else d
    if u < SECOND:
        if u == 0:
            return "0s"
        if u < MICROSECOND:
            frac, u, suffix = "", u, "ns"
        elif u < MILLISECOND:
            frac, u = _fmt_frac(u, 3)
            suffix = "µs"
        else:
            frac, u = _fmt_frac(u, 6)
            suffix = "ms"
        text = f"{u}{frac}{suffix}"
    else:
        frac, u = _fmt_frac(u, 9)
        text = f"{u % 60}{frac}s"
        u //= 60
        if u > 0:  # u is now whole minutes
            text = f"{u % 60}m" + text
            u //= 60
            if u > 0:  # whole hours; Go stops there because days vary in length
                text = f"{u}h" + text
    return "-" + text if neg else text


def format_duration(seconds: float) -> str:
    """Port of Duration.String for float seconds (rounded to whole nanoseconds first)."""
    return format_duration_ns(round(seconds * SECOND))
