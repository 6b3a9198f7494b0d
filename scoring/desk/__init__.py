"""The tournament day at a glance: the desk, the venue screen, "where do I play?"."""
