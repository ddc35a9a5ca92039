// How far the page is wider than the screen (0 or less: it fits).
() => document.documentElement.scrollWidth - window.innerWidth
