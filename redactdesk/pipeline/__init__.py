"""Batch orchestration over the data path: plain functions the CLI and the GUI both call."""
