// `import WalletOrders` gives the whole library: verification, orders, the shared core and
// financial data, under the FinanceStore facade.
@_exported import FinanceData
@_exported import OrderPackage
@_exported import OrderStorage
@_exported import WalletCore
@_exported import WalletPrimitives
@_exported import WalletSQLite
@_exported import WalletStorage
