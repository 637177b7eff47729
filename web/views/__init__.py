"""Server-rendered pages, one module per subject (ARCHITECTURE.md): home, campaign, map,
battles, fleets, naval, conquest, standings, audit, manage. ``scope`` resolves the campaign and
the viewer's rights, ``nav`` lists the campaign tabs, ``actions`` runs a form post."""
