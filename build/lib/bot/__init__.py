"""Adapters: the table service, Discord and the local console."""
