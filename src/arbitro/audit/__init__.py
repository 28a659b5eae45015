"""Auditing game databases under the Laws.

:func:`~arbitro.audit.auditor.audit_text` audits one game with the same Laws engine that runs
live games; :mod:`arbitro.audit.runner` reads PGN files (plain, ``.gz``, ``.bz2``, ``.zst``)
and audits them on one core, on all of them, or on a Dask cluster, always in the same order.
"""

from arbitro.audit.auditor import audit_record, audit_text
from arbitro.audit.findings import CODES, Finding

__all__ = ["CODES", "Finding", "audit_record", "audit_text"]
