"""The HTTP side: the FastAPI application, its REST routes and its pydantic models."""
