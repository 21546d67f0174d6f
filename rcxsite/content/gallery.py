"""Pictures on /gallery: SVG scenes drawn by us in assets/gallery/, each with what it shows
(`alt`) for people who cannot see it."""

from rcxsite.content.types import GalleryItem

GALLERY: tuple[GalleryItem, ...] = (
    GalleryItem(
        "London studio",
        "Our main studio by Tower Bridge.",
        "/gallery/studio.svg",
        alt=(
            "A bright open-plan studio with big windows looking out on Tower Bridge, people "
            "working at desks"
        ),
    ),
    GalleryItem(
        "Hack day",
        "Teams building prototypes in 24 hours.",
        "/gallery/hackday.svg",
        alt="Small teams around tables with laptops, a wall of sticky notes and a big clock",
    ),
    GalleryItem(
        "Design workshop",
        "Mapping a patient journey with a client.",
        "/gallery/workshop.svg",
        alt="People at a wall of sticky notes mapping a patient journey",
    ),
    GalleryItem(
        "Code club",
        "Teaching teenagers to code on Saturdays.",
        "/gallery/codeclub.svg",
        alt="Teenagers coding on laptops while a mentor helps them",
    ),
    GalleryItem(
        "Team retreat",
        "Our yearly get-together in the Lake District.",
        "/gallery/retreat.svg",
        alt="Colleagues on a grassy hill above a lake with mountains behind",
    ),
    GalleryItem(
        "Tree planting",
        "1,200 trees planted with local volunteers.",
        "/gallery/trees.svg",
        alt="Volunteers planting young trees in a park, with a spade and a watering can",
    ),
)
