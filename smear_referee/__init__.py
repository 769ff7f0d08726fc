"""The gRPC referee service: tables, persistence, auth, events, clients and bots."""
