"""The CLI's error for bad input: one line on stderr, exit 2."""

from __future__ import annotations

import click


class BadInput(click.ClickException):
    """Bad input: one line on stderr, exit 2."""

    exit_code = 2
