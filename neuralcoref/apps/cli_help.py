"""Readable ``--help`` for the command line: no type tags on flags, upper-case argument names."""
from __future__ import annotations

from typing import Any

import typer


class ReadableArgument(typer.core.TyperArgument):
    """An argument shown as INPUT_CONLL in usage lines, not as typer's {input_conll}."""

    def _usage_display_name(self) -> str:
        name = self.display_name_raw.upper()
        return (name if self.required else f"[{name}]") + ("..." if self.nargs != 1 else "")


def make_readable(command: Any) -> None:
    """Help without typer's type tags on flags (``<bool>``) and with upper-case
    argument names, for every command (including those added later)."""
    for sub in getattr(command, "commands", {}).values():
        make_readable(sub)
    make_help_option = command.get_help_option

    def get_help_option(ctx):
        option = make_help_option(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""
        return option

    command.get_help_option = get_help_option
    for param in command.params:
        if isinstance(param, typer.core.TyperArgument):
            param.__class__ = ReadableArgument
            param.metavar = param.metavar or param.name.upper()
        elif getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
