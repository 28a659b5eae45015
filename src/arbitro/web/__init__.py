"""The web application (FastAPI): play and arbitrate a game in the browser.

``arbitro serve`` runs it with uvicorn; :func:`~arbitro.web.app.create_app` builds it.
"""

from arbitro.web.app import create_app

__all__ = ["create_app"]
