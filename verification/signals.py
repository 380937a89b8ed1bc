"""Receivers that keep the repeat index current as stories change."""
