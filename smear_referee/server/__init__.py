"""The server's faces: the gRPC handlers, the browsers' port, health checks, and worker processes for strangers' work."""
