"""Server-rendered pages of a campaign (issue 5). One module per page; ``scope`` resolves the
campaign and the viewer's rights, ``nav`` lists the campaign tabs."""
