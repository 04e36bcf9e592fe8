"""Admin registrations for ratings; added with its models."""
