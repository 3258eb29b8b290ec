class IllegalMove(ValueError):
    """A refused action. ``str(error)`` is the sentence the player reads; nothing was changed."""
