"""The `redactdesk` command: a thin front end over redactdesk.pipeline and the stage packages."""
