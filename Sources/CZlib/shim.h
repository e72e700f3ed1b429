#ifndef WALLET_ORDERS_CZLIB_H
#define WALLET_ORDERS_CZLIB_H
#include <zlib.h>
#endif
