"""Command-line front ends: argument parsing plus calls into the shardpy library."""
