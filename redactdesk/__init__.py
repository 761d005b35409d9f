"""redactdesk: find, review and replace personal data in recorded conversations."""

__version__ = "0.1.0"
