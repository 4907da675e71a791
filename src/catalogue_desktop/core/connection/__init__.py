"""How the app reaches a real service from a company network (Qt-free).

``settings`` (what a profile stores: extra CA file, proxy, kind of credentials; never a secret),
``profiles`` (named catalogues, each with its base URL, connection settings and cache folder),
``secrets`` (the OS keyring through the ``keyring`` package, or an environment variable),
``credentials`` (the headers sent, only to the service's own origin), ``proxies`` (which proxy,
and why), ``tls`` (the OS trust store through ``truststore``; a refused certificate explained),
``resolved`` (all of it for one base URL: what ``core.service.client`` is given), ``probes`` (the path to
the service at the socket level, which ``core.service.diagnosis`` walks step by step) and ``refusals``.
"""
