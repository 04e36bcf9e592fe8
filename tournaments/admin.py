"""Admin registrations for tournaments; added with its models."""
