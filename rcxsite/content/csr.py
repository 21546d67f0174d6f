"""Corporate social responsibility activities on /insights/csractivities."""

from rcxsite.content.types import Section

CSR_ACTIVITIES: tuple[Section, ...] = (
    Section("Code club for teenagers",
            "Every Saturday our volunteers teach programming to 40 students from local schools."),
    Section("Trees for every project",
            "We plant ten trees for every project we deliver: 3,400 trees so far."),
    Section("Pro bono work",
            "Each year we build one product for a charity free of charge."),
    Section("Accessible by default",
            "We test everything we build with assistive technology, and publish what we learn."),
)
