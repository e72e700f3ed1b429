import FinanceData
import ServiceCore

/// Names for the merchant category codes people meet most (ISO 18245's categories, in short);
/// any other code shows as its number.
enum MerchantCategoryNames {
    static let names: [Int16: String] = [
        4111: "Commuter Transport", 4121: "Taxis and Rideshares", 4131: "Bus Lines", 4511: "Airlines", 4722: "Travel Agencies",
        4812: "Telecom Equipment", 4814: "Telecom Services", 4899: "Cable and Streaming", 4900: "Utilities",
        5200: "Home Supply", 5211: "Building Materials", 5311: "Department Stores", 5331: "Variety Stores",
        5399: "General Merchandise", 5411: "Groceries", 5422: "Butchers", 5441: "Confectioners", 5451: "Dairy",
        5462: "Bakeries", 5499: "Food Stores", 5541: "Fuel", 5542: "Fuel Dispensers", 5651: "Clothing", 5661: "Shoes",
        5691: "Clothing Stores", 5712: "Furniture", 5732: "Electronics", 5734: "Software", 5735: "Music Stores",
        5811: "Caterers", 5812: "Restaurants", 5813: "Bars", 5814: "Fast Food", 5912: "Pharmacies", 5941: "Sporting Goods",
        5942: "Bookstores", 5945: "Toys and Games", 5977: "Cosmetics", 5992: "Florists", 5999: "Retail", 6011: "Cash Withdrawals",
        6300: "Insurance", 7011: "Hotels", 7230: "Hair and Beauty", 7298: "Spas", 7372: "Computer Services", 7512: "Car Rental",
        7523: "Parking", 7832: "Cinemas", 7922: "Theatre", 7941: "Sports Clubs", 7997: "Clubs", 7999: "Recreation",
        8011: "Doctors", 8021: "Dentists", 8062: "Hospitals", 8099: "Health Services", 8220: "Colleges", 8299: "Education",
        8398: "Charities", 9399: "Government Services",
    ]

    static func name(of code: MerchantCategoryCode) -> String {
        names[code.rawValue] ?? "Category \(code.rawValue)"
    }
}
