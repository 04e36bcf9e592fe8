"""Admin registrations for games; added with its models."""
