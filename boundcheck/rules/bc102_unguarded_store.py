from boundcheck.model import AccessKind
from boundcheck.rules.bc101_unguarded_load import UnguardedLoad


class UnguardedStore(UnguardedLoad):
    """A write or atomic over a partial tile with no mask, guard or divisibility contract."""

    code = "BC102"
    name = "unguarded-store"
    kinds = (AccessKind.WRITE, AccessKind.ATOMIC)
    verb = "write to"
