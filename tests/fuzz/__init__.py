"""A fuzzer over the site's URLconf: routes, their parameters and hostile values, all found.

Nothing here names a route or a parameter. `routes` walks the URLconf, `crawl` follows the
site's own links and forms for real values, `discovery` records which query, form and cookie
names each view reads, `plans` turns that into hostile requests (a fixed matrix for the
suite, a hypothesis strategy for the long campaign) and `checks` says what no response may
do. See docs/hardening.md.
"""
