"""Ready-made products RCX licenses (shown on /products; plans on /pricing)."""

from rcxsite.content.types import Product

PRODUCTS: tuple[Product, ...] = (
    Product(
        name="RCX Desk",
        icon="headset",
        summary="A customer-support desk with shared inbox, chat and a self-service help centre.",
        features=(
            "Shared email and chat inbox with assignment and internal notes",
            "Help centre with search, in your own branding and domain",
            "SLA reports and response-time alerts",
            "Canned replies and suggested articles for agents",
            "Customer satisfaction surveys after each conversation",
            "Data hosted in the UK, with single sign-on on the Scale plan",
        ),
    ),
    Product(
        name="RCX Commerce Kit",
        icon="store",
        summary="A headless storefront starter with checkout, stock sync and search built in.",
        features=(
            "Fast static storefront built with Next.js",
            "Stock and order sync with store tills and warehouse systems",
            "Payments and tax, with 3-D Secure and UK VAT handled",
            "Product search with filters and typo tolerance",
            "Click-and-collect and store stock lookup",
            "Accessible checkout tested to WCAG 2.2 AA",
        ),
    ),
    Product(
        name="RCX Insight",
        icon="chart-line",
        summary="Dashboards and forecasts from the data you already have, with no data team.",
        features=(
            "Connectors for 40 sources, including Xero, Shopify and Google Analytics 4",
            "Scheduled reports by email and Microsoft Teams",
            "Sales forecasts with confidence ranges",
            "Ready-made dashboards for sales, stock and marketing",
            "Row-level permissions for teams and regions",
            "Export to Excel and CSV at any time",
        ),
    ),
)
