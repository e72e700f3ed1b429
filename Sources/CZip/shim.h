#ifndef WALLET_ORDERS_CZIP_H
#define WALLET_ORDERS_CZIP_H
#include <zip.h>
#endif
