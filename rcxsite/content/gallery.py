"""Pictures on /gallery. Images are SVG illustrations in assets/gallery/."""

from rcxsite.content.types import GalleryItem

GALLERY: tuple[GalleryItem, ...] = (
    GalleryItem("London studio", "Our main studio by Tower Bridge.", "/gallery/studio.svg"),
    GalleryItem("Hack day", "Teams building prototypes in 24 hours.", "/gallery/hackday.svg"),
    GalleryItem(
        "Design workshop", "Mapping a patient journey with a client.", "/gallery/workshop.svg"
    ),
    GalleryItem("Code club", "Teaching teenagers to code on Saturdays.", "/gallery/codeclub.svg"),
    GalleryItem(
        "Team retreat", "Our yearly get-together in the Lake District.", "/gallery/retreat.svg"
    ),
    GalleryItem(
        "Tree planting", "1,200 trees planted with local volunteers.", "/gallery/trees.svg"
    ),
)
