"""The CLI's one edge: every outcome of every command becomes text or JSON and an exit code here.

`kb.cli.main.LazyGroup.main` runs click with `standalone_mode=False` inside `run()`, which catches

- a domain error (kb.errors: unusable input, unreadable file, catalog or rule base invalid, engine
  failure, source unreachable) → its message (`Error: …` / `Fehler: …`, the located problems below it);
- a click usage error (unknown option, bad choice, missing argument) → click's own text, in the run's
  language (kb.cli.i18n); an option named like the command's argument (`gpukb ask mig --card L4`) adds the
  command line that works (`details.suggestions` in JSON);
- Ctrl-C → "Aborted!", exit 130;
- anything else → an internal error: one line naming the exception and the file the traceback was
  written to (`gpukb --debug …` or GPUKB_DEBUG=1 prints the traceback instead), exit 4.

With `--json` every error is one JSON object on stdout, the same shape for every command:

    {"error": "<message in the run's language>", "kind": "<kind>", "exit_code": <n>, "lang": "en|de",
     "details": {…}}   # e.g. suggestions, problems [{file, line, path, kind, message}], question, traceback

The exit code comes from kb.cli.exitcodes.exit_code() only. A command's own result (0, 1 for findings, 3
for an unreachable source) is its return value or SystemExit, passed through unchanged.
"""

from __future__ import annotations

import os
import re
import sys

import click

from kb.cli import i18n
from kb.cli.exitcodes import Exit, exit_code
from kb.text import Text, pick

#: the kinds of errors the edge reports that are not domain errors
USAGE, INTERNAL, INTERRUPTED = "usage", "internal-error", "interrupted"
#: at most this many problems are listed in text output (JSON has them all)
SHOWN_PROBLEMS = 20
#: tracebacks kept in the traceback folder
KEPT_TRACEBACKS = 20

_state: dict = {}


def note(name: str, value) -> None:
    """Remember an option the run was given (the output options' click callbacks call this)."""
    _state[name] = value


def _scan(args: list[str]) -> dict:
    """--json / --lang / --debug from a raw command line, before click has parsed it."""
    head = args[:args.index("--")] if "--" in args else args
    return {"json": "--json" in head, "debug": "--debug" in head or bool(os.environ.get("GPUKB_DEBUG")),
            "lang": i18n.from_args(head) or i18n.from_locale()}


def run(main, args=None, *, standalone_mode: bool = True, **kwargs):
    """Run click's `main` (of the gpukb group) through the edge; exits (or returns the code when
    standalone_mode is False, for tests and embedding)."""
    args = sys.argv[1:] if args is None else list(args)
    _state.clear()
    _state.update(_scan(args), args=args)
    with i18n.using(_state.pop("lang")):
        try:
            rv = main(args, standalone_mode=False, **kwargs)
            code = rv if isinstance(rv, int) else Exit.OK
        except click.exceptions.Exit as exc:  # pragma: no cover - click returns it when not standalone
            code = exc.exit_code
        except (click.Abort, KeyboardInterrupt, EOFError):
            code = report_interrupted()
        except click.ClickException as exc:
            code = report_usage(exc)
        except BrokenPipeError:
            code = _closed_pipe()
        except SystemExit:
            raise
        except Exception as exc:  # noqa: BLE001 - the edge: every error ends here
            from kb.errors import GpukbError

            code = report_error(exc) if isinstance(exc, GpukbError) else report_internal(exc)
    code = int(code)
    if standalone_mode:
        sys.exit(code)
    return code


def _lang() -> str:
    return i18n.current()


def _json(obj: dict) -> None:
    from kb.cli.options import json_text  # (options imports this module)
    from kb.terminal import safe_json

    click.echo(safe_json(json_text(obj)))


def error_json(message: str, kind: str, code: int, details: dict | None = None) -> dict:
    """The one JSON error shape (`details.command`: the command that failed, e.g. "ask mig", where click got
    that far)."""
    details = dict(details or {})
    if _state.get("command"):
        details.setdefault("command", _state["command"])
    return {"error": message, "kind": kind, "exit_code": int(code), "lang": _lang(), "details": pick(details, _lang())}


def _emit(message: Text | str, kind: str, code: int, details: dict | None = None, lines: list[str] = ()) -> int:
    lang = _lang()
    text = Text.of(message)(lang)
    if _state.get("json"):
        _json(error_json(text, kind, code, details))
    else:
        from kb.terminal import safe

        head = i18n.gettext("Error: {message}").format(message=text)
        # file names and values from the input may hold control characters: shown, never obeyed
        click.echo("\n".join(safe(line, keep_newlines=False) for line in [head + (":" if lines else ""), *lines]),
                   err=True)
    return code


def problem_line(problem: dict, lang: str) -> str:
    """'file:line: path: message' (the format of kb.catalog.yamlsafe.Problem) in `lang`."""
    where = f"{problem.get('file')}:{problem['line']}" if problem.get("line") else str(problem.get("file", ""))
    path = problem.get("path") or ""
    message = pick(problem.get("message", ""), lang)
    return f"{where}: {path + ': ' if path else ''}{message}" if where else f"{path + ': ' if path else ''}{message}"


def problem_lines(problems: list[dict], lang: str) -> list[str]:
    lines = [f"  {problem_line(p, lang)}" for p in problems[:SHOWN_PROBLEMS]]
    if len(problems) > SHOWN_PROBLEMS:
        more = len(problems) - SHOWN_PROBLEMS
        lines.append("  " + Text(f"… and {more} more", f"… und {more} weitere")(lang))
    return lines


def report_error(exc) -> int:
    """A domain error (kb.errors.GpukbError)."""
    if exc.outcome == "internal":
        return report_internal(exc)
    code = exit_code(outcome=exc.outcome)
    return _emit(exc.text, exc.kind, code, exc.details, problem_lines(exc.details.get("problems") or [], _lang()))


def _shell_word(word: str) -> str:
    return word if re.fullmatch(r"[\w@%+=:,./-]+", word) else '"' + re.sub(r'(["\\$`])', r"\\\1", word) + '"'


def _argument_named(exc: click.ClickException) -> tuple[str, str] | None:
    """`gpukb ask mig --card L4`: an option named like the command's argument (CARD is given without a name) →
    (the argument as the help shows it, the command line without the option's name); else None."""
    ctx = getattr(exc, "ctx", None)
    if not isinstance(exc, click.NoSuchOption) or ctx is None:
        return None
    option = exc.option_name
    name = option.lstrip("-").replace("-", "_").lower()
    argument = next((p for p in ctx.command.params if isinstance(p, click.Argument) and p.name == name), None)
    if argument is None or not option.startswith("--"):
        return None
    words = [w.partition("=")[2] if w.startswith(option + "=") else w for w in _state.get("args", []) if w != option]
    if not _parses(ctx, words):  # (the argument given as well: `gpukb ask mig L4 --card L4`)
        return None
    shown = argument.human_readable_name
    return (i18n.metavar_de(shown) if _lang() == "de" else shown), " ".join(["gpukb", *map(_shell_word, words)])


def _parses(ctx: click.Context, words: list[str]) -> bool:
    """Whether the command of `ctx` takes `words` (a whole command line, the groups' names and options first)."""
    path, at = [], ctx
    while at.parent is not None:  # the subcommands' names, not the program's ("python -m kb" has spaces)
        path.insert(0, at.info_name)
        at = at.parent
    i = 0
    for name in path:  # the command's own words follow its name
        while i < len(words) and words[i] != name:
            i += 1
        i += 1
    try:
        ctx.command.make_context(ctx.info_name, words[i:], parent=ctx.parent).close()
    except (click.ClickException, click.exceptions.Exit):
        return False
    return True


def report_usage(exc: click.ClickException) -> int:
    """A click usage error: click's own words (in the run's language), exit 2; an option named like the
    command's argument says how the argument is given (the command line without the option's name)."""
    code = exit_code(unusable=True)
    named = _argument_named(exc)
    if named:
        said = exc.format_message
        hint = Text("{name} is given without an option name: {line}",
                    "{name} wird ohne Optionsnamen angegeben: {line}").format(name=named[0], line=named[1])(_lang())
        exc.format_message = lambda: f"{said()} {hint}"
    if _lang() == "de":  # click quotes names and values 'like this' (its format strings, repr): „so“ in German
        english = exc.format_message
        exc.format_message = lambda: i18n.german_quotes(english())
    if _state.get("json"):
        details = {"suggestions": [named[1]]} if named else {}
        ctx = getattr(exc, "ctx", None)
        if ctx is not None:
            _state["command"] = " ".join(ctx.command_path.split()[1:])
        param = getattr(exc, "param", None)
        if param is not None and getattr(param, "name", None):
            details["parameter"] = param.name
        _json(error_json(exc.format_message(), USAGE, code, details))
    else:
        exc.show()
    return code


def report_interrupted() -> int:
    click.echo(i18n.gettext("Aborted!"), err=True)
    return exit_code(interrupted=True)


def _closed_pipe() -> int:
    """The reader of our output went away (`gpukb export answers --json | head`): nothing to report."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return Exit.OK


def report_internal(exc: BaseException) -> int:
    """An error inside gpukb: one line and the traceback's file (or, with --debug, the traceback)."""
    import traceback

    code = exit_code(internal=True)
    trace = "".join(traceback.format_exception(exc))
    what = " ".join(f"{type(exc).__name__}: {exc}".split())
    if len(what) > 300:
        what = what[:300] + "…"
    path = None if _state.get("debug") else write_traceback(trace)
    if _state.get("debug"):
        click.echo(trace, err=True, nl=False)
    if getattr(exc, "kind", None) and hasattr(exc, "text"):
        kind, message = exc.kind, Text("internal error: {what}", "interner Fehler: {what}").format(what=exc.text)
    else:
        kind, message = INTERNAL, Text("internal error: {what}", "interner Fehler: {what}").format(what=what)
    if path:
        message += Text(" — please report it; the traceback is in {path} (gpukb --debug … prints it)",
                        " – bitte melden; der Traceback steht in {path} (gpukb --debug … gibt ihn aus)").format(path=path)
    elif not _state.get("debug"):
        message += Text(" — gpukb --debug … prints the traceback", " – gpukb --debug … gibt den Traceback aus")
    details = {"exception": type(exc).__name__, "traceback": path}
    return _emit(message, kind, code, details)


def traceback_dir():
    from kb.catalog.compiled import cache_dir

    return cache_dir() / "tracebacks"


def write_traceback(trace: str) -> str | None:
    """Write `trace` to a new file in the traceback folder (the oldest beyond KEPT_TRACEBACKS removed);
    its path, or None where nothing can be written."""
    import datetime as dt

    from kb.fsutil import atomic_write

    folder = traceback_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = atomic_write(folder / f"{stamp}-{os.getpid()}.txt", trace)
        for old in sorted(folder.glob("*.txt"))[:-KEPT_TRACEBACKS]:
            old.unlink(missing_ok=True)
        return str(path)
    except OSError:
        return None
