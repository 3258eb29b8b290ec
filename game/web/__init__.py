"""What the solo and network pages share: the view model, the last trick, the cookie that
holds the person's name and options, and how a page or fragment is answered."""
