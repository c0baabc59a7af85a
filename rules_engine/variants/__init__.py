"""Every variant, one module each, ending with its one `register(VariantInfo(...))` call.

Importing this package registers them all; rules_engine.registry does it once. Registration
order is the site's display order, so the imports below keep that order (not isort's).
"""

# isort: off
from rules_engine.variants import stress_se  # noqa: F401
from rules_engine.variants import james_bond  # noqa: F401
from rules_engine.variants import spit  # noqa: F401
from rules_engine.variants import stress_de  # noqa: F401
from rules_engine.variants import stressi_fi  # noqa: F401
# isort: on
