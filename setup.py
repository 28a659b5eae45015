"""The compiled part of arbitro: the cooperative search for a mate (see search.py).

Everything else is in pyproject.toml. The extension is optional: without a C compiler the
package installs anyway and arbitro.adjudication.search runs the same search in Python.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "arbitro.adjudication._helpmate",
            ["src/arbitro/adjudication/_helpmate.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
