"""Pure rules of the tournament: standard library only, values in and values out."""
