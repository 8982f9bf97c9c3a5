"""The table service's desks and plain types; ``bot.tables.TableService`` is their front."""
