"""Just enough reStructuredText for NVIDIA's pages: headings, directive bodies, grid and list tables."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.drift.extractors import ExtractError

_UNDERLINE = re.compile(r"^([=\-*#^\"~+`])\1{2,}\s*$")
_SUBST = re.compile(r"\|[A-Za-z0-9][\w-]*\|_{0,2}")


@dataclass
class Heading:
    title: str
    line: int  # 0-based index of the title line
    char: str


def headings(lines: list[str]) -> list[Heading]:
    """Section titles: a text line followed by an underline of one punctuation character (overline optional)."""
    found = []
    for i in range(len(lines) - 1):
        title, under = lines[i].rstrip(), lines[i + 1]
        m = _UNDERLINE.match(under)
        if not m or not title.strip() or title.startswith((" ", "..")) or _UNDERLINE.match(title):
            continue
        found.append(Heading(title.strip(), i, m.group(1)))
    return found


def section(lines: list[str], title: str | tuple[str, ...]) -> tuple[int, list[str]]:
    """(index of the first body line, body lines) of the section whose title starts with `title` (or with
    one of several titles the document has used), up to the next heading."""
    heads = headings(lines)
    titles = (title,) if isinstance(title, str) else title
    for n, h in enumerate(heads):
        if h.title.lower().startswith(tuple(t.lower() for t in titles)):
            start = h.line + 2
            end = heads[n + 1].line if n + 1 < len(heads) else len(lines)
            if n + 1 < len(heads) and _UNDERLINE.match(lines[end - 1] or ""):
                end -= 1  # the next heading's overline
            return start, lines[start:end]
    raise ExtractError(f"no section titled {' or '.join(repr(t) for t in titles)}")


def indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def block(lines: list[str], start: int) -> list[str]:
    """The indented body of the directive at lines[start], dedented (blank lines kept, trailing ones dropped)."""
    base = indent(lines[start])
    body = []
    for line in lines[start + 1:]:
        if line.strip() and indent(line) <= base:
            break
        body.append(line)
    while body and not body[-1].strip():
        body.pop()
    width = min((indent(b) for b in body if b.strip()), default=0)
    return [b[width:] if b.strip() else "" for b in body]


def directives(lines: list[str], name: str) -> list[tuple[int, str]]:
    """(line index, argument) of every `.. name:: argument` in lines."""
    pat = re.compile(rf"^\s*\.\. {re.escape(name)}::\s*(.*)$")
    return [(i, m.group(1).strip()) for i, line in enumerate(lines) if (m := pat.match(line))]


def options_end(body: list[str]) -> int:
    """Index of the first line after a directive's `:option:` lines."""
    i = 0
    while i < len(body) and body[i].lstrip().startswith(":") and body[i].strip():
        i += 1
    return i


def drop_substitutions(text: str) -> str:
    """Remove substitution references such as `|open-kern-module|_` (footnote markers)."""
    return _SUBST.sub("", text)


@dataclass
class Row:
    cells: list[list[str]]  # each cell: its text lines
    line: int  # 0-based index (within the lines given to the parser) of the row's first line
    header: bool = False


@dataclass
class Table:
    rows: list[Row] = field(default_factory=list)
    kind: str = "grid"  # "grid": a row's columns share its lines; "list": each cell on its own lines

    def columns(self) -> list[str]:
        """Header text per column (wrapped header lines joined)."""
        heads = [r for r in self.rows if r.header]
        if not heads:
            return []
        return [" ".join(x.strip("| ").strip() for x in cell if x.strip()) for cell in heads[-1].cells]

    def body(self) -> list[Row]:
        return [r for r in self.rows if not r.header]


def is_border(line: str) -> bool:
    """A grid table's border line (`+----+====+`)."""
    return bool(re.match(r"^\s*\+[-=+]+\+\s*$", line))


def grid_tables(lines: list[str], offset: int = 0) -> list[tuple[int, Table]]:
    """Every grid table in lines: (index of its first line + offset, table)."""
    out = []
    i = 0
    while i < len(lines):
        if re.match(r"^\s*\+[-=+]+\+\s*$", lines[i]):
            j = i
            while j < len(lines) and lines[j].strip().startswith(("+", "|")):
                j += 1
            out.append((i + offset, parse_grid(lines[i:j], i + offset)))
            i = j
        else:
            i += 1
    return out


def parse_grid(lines: list[str], offset: int = 0) -> Table:
    """One grid table. Column boundaries come from the first border; every row line must have a bar there."""
    first = lines[0]
    bounds = [k for k, ch in enumerate(first) if ch == "+"]
    if len(bounds) < 2:
        raise ExtractError(f"line {offset + 1}: grid table border without columns")
    table = Table()
    current: list[list[str]] | None = None
    start = 0
    has_header = any(re.match(r"^\s*\+[=+]+\+\s*$", x) for x in lines)
    in_header = has_header
    for k, raw in enumerate(lines):
        line = raw.rstrip()
        if re.match(r"^\s*\+[-=+]+\+$", line):
            if current is not None:
                table.rows.append(Row(current, start, header=in_header))
                current = None
            if "=" in line:
                in_header = False
            continue
        if any(len(line) <= b or line[b] != "|" for b in bounds):
            raise ExtractError(f"line {offset + k + 1}: grid table row does not line up with its border")
        if current is None:
            current, start = [[] for _ in bounds[:-1]], offset + k
        for c in range(len(bounds) - 1):
            current[c].append(line[bounds[c] + 1:bounds[c + 1]].rstrip())
    if current is not None:
        table.rows.append(Row(current, start, header=False))
    return table


def parse_list_table(lines: list[str], start: int, offset: int = 0) -> Table:
    """The `.. list-table::` directive at lines[start] (header rows from :header-rows:); row lines are
    indices into lines plus `offset`."""
    body = block(lines, start)
    m = next((re.match(r"^\s*:header-rows:\s*(\d+)", b) for b in body if b.strip().startswith(":header-rows:")), None)
    header_rows = int(m.group(1)) if m else 0
    table = Table(kind="list")
    cell_indent = None
    for k in range(options_end(body), len(body)):
        line, stripped = body[k], body[k].strip()
        if stripped.startswith("* -"):
            cell_indent = indent(line) + 2
            table.rows.append(Row([[stripped[3:].strip()]], offset + start + 1 + k))
        elif table.rows and stripped.startswith("-") and indent(line) == cell_indent:
            table.rows[-1].cells.append([stripped[1:].strip()])
        elif table.rows and stripped:
            table.rows[-1].cells[-1].append(stripped)
    for n, row in enumerate(table.rows):
        row.header = n < header_rows
    return table


def cell_items(cell: list[str]) -> list[tuple[str, int]]:
    """The entries of a cell: one per line-block line (`| NVIDIA H200,`), else the wrapped lines joined.
    Returns (text, index of the line within the cell it starts on)."""
    lines = [x.strip() for x in cell]
    if any(x.startswith("| ") or x == "|" for x in lines):
        items: list[tuple[str, int]] = []
        for k, x in enumerate(lines):
            if x.startswith("|"):
                items.append((x[1:].strip(), k))
            elif x and items:
                items[-1] = (items[-1][0] + " " + x, items[-1][1])
        return [(t, k) for t, k in items if t]
    text = " ".join(x for x in lines if x)
    return [(text, next((k for k, x in enumerate(lines) if x), 0))] if text else []


_SPAN = re.compile(r"^:(cspan|rspan):`(\d+)`\s*")


def span_grid(table: Table) -> list[list[list[str] | None]]:
    """The rows of a `flat-table` as a full grid: a cell written `:cspan:`N`` fills N+1 columns of its row,
    `:rspan:`N`` the same column of N more rows; a spanned slot holds the spanning cell's lines (the role
    removed). Slots no cell covers are None."""
    grid: list[list[list[str] | None]] = []
    pending: dict[tuple[int, int], list[str]] = {}  # (row, column) filled by an rspan above
    for r, row in enumerate(table.rows):
        out: list[list[str] | None] = []
        col = 0
        for cell in row.cells:
            while (r, col) in pending:
                out.append(pending.pop((r, col)))
                col += 1
            first = cell[0] if cell else ""
            cspan = rspan = 0
            while (m := _SPAN.match(first)):
                if m.group(1) == "cspan":
                    cspan = int(m.group(2))
                else:
                    rspan = int(m.group(2))
                first = first[m.end():]
            lines = [first, *cell[1:]] if cell else []
            for c in range(col, col + cspan + 1):
                out.append(lines)
                for below in range(1, rspan + 1):
                    pending[(r + below, c)] = lines
            col += cspan + 1
        while (r, col) in pending:
            out.append(pending.pop((r, col)))
            col += 1
        grid.append(out)
    width = max((len(x) for x in grid), default=0)
    return [x + [None] * (width - len(x)) for x in grid]
