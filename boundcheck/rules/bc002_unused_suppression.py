from boundcheck.registry import Rule


class UnusedSuppression(Rule):
    """A suppression comment that suppresses nothing. Reported by the suppression pass, which
    alone knows what each comment matched; the rule exists for its code, page and selection."""

    code = "BC002"
    name = "unused-suppression"
