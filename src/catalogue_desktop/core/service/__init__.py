"""Talking to the catalogue service: the HTTP client (httpx), bodies as they download (size caps,
inflating, spooling), the accepted addresses and failures in plain words, and the lowered CPU
priority of background work."""
