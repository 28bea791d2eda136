"""Rule modules: each defines one :class:`boundcheck.registry.Rule` subclass and is found by
``boundcheck.registry.all_rules``."""
