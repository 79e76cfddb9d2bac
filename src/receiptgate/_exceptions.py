"""Exceptions raised by receiptgate.

The tree separates mistakes a user can fix from failures at run time::

    ReceiptgateError
    ├── UserError            -- bad input or configuration; the CLI exits 2
    │   ├── ConfigError      -- a config, policy or fact-registry file/field is wrong
    │   └── InputError       -- text, receipts or transcript input is unreadable or malformed
    └── RuntimeFailure       -- something broke while validating; the fail mode decides
        ├── DetectorError    -- a claim detector raised
        ├── CheckerError     -- an evidence checker raised
        └── StoreError       -- an audit or fact store failed

Messages name the file, the field (``facts[3].value.type``) and the problem, so
that a one-line CLI error is enough to fix the input.
"""

from __future__ import annotations


class ReceiptgateError(Exception):
    """Base class of every receiptgate exception."""


class UserError(ReceiptgateError):
    """A mistake in input or configuration that the user can fix."""


class ConfigError(UserError):
    """A configuration, policy or fact-registry problem, detected at load time."""


class InputError(UserError):
    """Unreadable or malformed input: text, receipts, transcripts."""


class RuntimeFailure(ReceiptgateError):
    """A failure while validating; handled by the configured fail mode."""


class DetectorError(RuntimeFailure):
    """A claim detector raised while scanning text."""


class CheckerError(RuntimeFailure):
    """An evidence checker raised while checking a claim."""


class StoreError(RuntimeFailure):
    """An audit or fact store failed."""
