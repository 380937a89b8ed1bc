"""Operations: sign-in lockout, health and readiness, the worker heartbeat."""
