"""Every public route of the demo site, for tests that must hold on all of them."""

TRAINING = "/stories/2026-10-16/agent-training-stack/"
AGENTIC = "/stories/2026-10-20/agentic-rl-production/"
NEWSROOM = "/n/artificial-intelligence/"
BEAT = "/n/artificial-intelligence/research/"
EDITION = "/editions/2026-10-16T00/"

PUBLIC_ROUTES = [
    "/",
    "/index.json",
    "/rss.xml",
    "/atom.xml",
    TRAINING,
    TRAINING + "index.json",
    TRAINING + "index.md",
    AGENTIC,
    AGENTIC + "index.json",
    AGENTIC + "index.md",
    NEWSROOM,
    NEWSROOM + "index.json",
    NEWSROOM + "rss.xml",
    NEWSROOM + "atom.xml",
    BEAT,
    BEAT + "index.json",
    BEAT + "rss.xml",
    BEAT + "atom.xml",
    EDITION,
    EDITION + "index.json",
    "/editions/2026-10-20T00/",
    "/search/?q=agent",
    "/search/?q=zebracorn",
    "/sitemap.xml",
    "/news-sitemap.xml",
    "/robots.txt",
    "/llms.txt",
    "/terms/reuse/",
    "/.well-known/reuse.json",
]

# Every page that lists the demo's stories (search pages are not stored, but listed here too).
LISTINGS = ["/", "/index.json", NEWSROOM, NEWSROOM + "index.json", BEAT, BEAT + "index.json", "/rss.xml", "/atom.xml"]
LISTINGS += [NEWSROOM + "rss.xml", NEWSROOM + "atom.xml", BEAT + "rss.xml", BEAT + "atom.xml"]
LISTINGS += ["/sitemap.xml", "/llms.txt", "/search/?q=agent"]
