"""What several features share: display formatting, plain-text tooltips, the web-URL check and the
settings remembered between runs. Imports no feature."""
