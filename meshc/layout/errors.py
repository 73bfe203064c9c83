"""Errors of the placement model. All are ValueErrors with a message meant for a person."""


class LayoutError(ValueError):
    """A layout, device or placement that is not legal; the message says what and why."""


class CapacityError(LayoutError):
    """A placement that does not fit its memory; names the owner and the shortfall in bytes."""


class UnsupportedSharding(LayoutError):
    """A distribution the chosen (2D, TT-Mesh faithful) form cannot express; says what would work."""
